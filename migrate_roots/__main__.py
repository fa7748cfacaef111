from migrate_roots.cli import main

main()
