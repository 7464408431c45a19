# Keeps every 20th stanza (the 1st, 21st, 41st ...) of a Debian Packages index, with five fields.
BEGIN { RS = ""; FS = "\n"; n = 0 }
{
  if (n++ % 20 != 0) next
  out = ""
  for (i = 1; i <= NF; i++) {
    if ($i ~ /^(Package|Version|Section|Maintainer|Description):/) out = out $i "\n"
  }
  printf "%s\n", out
}
