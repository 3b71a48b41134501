def main()
    print('fixed')

main()
