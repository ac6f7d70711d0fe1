"""Where backups and sync store their files: a local folder, WebDAV or an S3 bucket."""
