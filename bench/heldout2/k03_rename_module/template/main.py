from helpers import initials, title_case

if __name__ == "__main__":
    name = "ada lovelace"
    print(title_case(name), initials(name))
