"""Reading the text in images for models that cannot see them."""
