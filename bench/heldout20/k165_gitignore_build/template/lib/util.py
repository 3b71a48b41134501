def page(dishes):
    items = "".join(f"<li>{dish}</li>" for dish in dishes)
    return f"<h1>This week</h1><ul>{items}</ul>\n"
