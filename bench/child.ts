// One measurement in a fresh process, started by bench/run.ts:
//   node --import tsx bench/child.ts <bench> <comparator> <options JSON>
// Runs the bench's measure() for that one comparator and prints its figures as one line
// "BENCH-FIGURES <json>" on stdout (a marker, so nothing else printed is mistaken for it).

import process from "node:process";
import type { MeasureOptions, RoundBench } from "./common.ts";

const [name, comparator, optionsJson] = process.argv.slice(2);
const module: { bench: RoundBench } = await import(`./${name}.bench.ts`);
const options = JSON.parse(optionsJson ?? "{}") as MeasureOptions;
const figures = await module.bench.measure(comparator!, options);
process.stdout.write(`BENCH-FIGURES ${JSON.stringify(figures)}\n`, () => process.exit(0));
