from pokerroom.cli import main

main()
