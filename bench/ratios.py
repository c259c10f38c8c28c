"""Prints the mean, standard deviation and ratio to a reference command from hyperfine's JSON."""
import json
import sys

results = json.load(open(sys.argv[1]))["results"]
reference = next(r for r in results if r["command"] == sys.argv[2])
print(f"{'tool':<10}{'mean':>12}{'stddev':>12}{'ratio to ' + sys.argv[2]:>18}")
for r in results:
    ratio = r["mean"] / reference["mean"]
    print(f"{r['command']:<10}{r['mean'] * 1000:>10.2f}ms{r['stddev'] * 1000:>10.2f}ms{ratio:>17.2f}x")
