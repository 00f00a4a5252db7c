// Public surface of @agent-bridle/coreutils. Nothing is exported yet: see README.md for what this package will hold.
export {};
