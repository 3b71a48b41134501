fn main() {
    println!("photo-tidy");
}
