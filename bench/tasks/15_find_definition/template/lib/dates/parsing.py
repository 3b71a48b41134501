def parse_date(text):
    return text.split('-')
