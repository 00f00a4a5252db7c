// Public surface of @agent-bridle/shell-safe. Nothing is exported yet: see README.md for what this package will hold.
export {};
