print("ftsearch")
