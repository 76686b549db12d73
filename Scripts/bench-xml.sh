#!/bin/sh
# XML parsers on one file (default: the largest corpus model): cdstore's XMLReader against Foundation's XMLParser
# and, when libxml2-dev is installed, libxml2's own pull reader.
#   Scripts/bench-xml.sh [FILE] [RUNS]     (binaries go to a temporary folder)
# Figures and decision: docs/decisions/0012-xml-reader.md.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
file=${1:-"$here/../shared/corpus/models/woocommerce__woocommerce-ios__WooCommerce.xcdatamodeld/Model 117.xcdatamodel/contents"}
runs=${2:-100}
work=${TMPDIR:-/tmp}/cdstore-bench-xml
mkdir -p "$work"
swiftc -O -module-name BenchXML -package-name cdstore "$here"/Sources/CDStoreModel/XML/XMLText.swift \
    "$here"/Sources/CDStoreModel/XML/XMLReader*.swift "$here"/Sources/CDStoreModel/XML/XMLTreeElement.swift \
    "$here/Scripts/bench-xml/main.swift" -o "$work/bench-xml"
"$work/bench-xml" "$file" "$runs"
if [ -f /usr/include/libxml2/libxml/xmlreader.h ]; then
    cc -O2 -I/usr/include/libxml2 "$here/Scripts/bench-xml/libxml2-reader.c" -lxml2 -o "$work/libxml2-reader"
    "$work/libxml2-reader" "$file" "$runs"
fi
