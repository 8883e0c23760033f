import sys
print("extracting", sys.argv[1])
