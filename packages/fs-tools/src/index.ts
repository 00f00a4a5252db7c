// Public surface of @agent-bridle/fs-tools. Nothing is exported yet: see README.md for what this package will hold.
export {};
