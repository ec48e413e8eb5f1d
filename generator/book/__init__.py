"""The book as data: its files read through one door, the model, one edition assembled."""
