"""Files in and out: the one reader and writer (io), temporary files, devices and pipes, and the
tape's JSON format with its schema."""
