#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > backup.sh <<'SH'
#!/bin/sh
# Copy the .txt files of folder SRC into folder DEST: sh backup.sh SRC DEST
# DEST is made if it is missing; each copied file is named on a line of its own.
set -e
src=$1
dest=$2
mkdir -p "$dest"
count=0
for path in "$src"/*.txt; do
    [ -f "$path" ] || continue
    name=${path##*/}
    cp "$path" "$dest/"
    echo "copied $name"
    count=$((count + 1))
done
echo "$count files backed up to $dest"
SH
