from shop.cart import compute_total
