from lib.dates.parsing import parse_date
