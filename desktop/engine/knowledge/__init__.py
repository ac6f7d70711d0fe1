"""Knowledge libraries: reading the person's files, indexing them, searching them."""
