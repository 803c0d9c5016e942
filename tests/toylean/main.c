/* The toy `lean` executable: Lean's own command-line driver, exported by libleanshared.so. */
int lean_main(int argc, char **argv);

int main(int argc, char **argv) { return lean_main(argc, argv); }
