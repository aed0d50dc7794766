// The CPU and wall time of each test file run alone, to find where `npm test`'s time goes: on two
// cores the Node suite is CPU-bound, so a file's CPU seconds (user + system, of the runner and
// every process it waited for: the CLI runs, the servers) are what it costs the suite; its wall
// seconds are noisy on a shared machine. Each file runs as one would run it by hand:
//   node --import tsx --test FILE          (node)
//   deno test -A --no-check FILE           (deno)
// measured by GNU time (/usr/bin/time, Linux), JOBS files at a time (default 2). Prints a line
// per file as it ends (file, CPU s, user s, system s, wall s, exit code; tab-separated), then
// the files sorted by CPU and the totals.
//   node --import tsx scripts/test-cpu.ts node|deno [--jobs N] [FILE…]   (default: every *.test.ts file)

import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TIME = "/usr/bin/time";

interface Measure {
  file: string;
  cpu: number;
  user: number;
  system: number;
  wall: number;
  code: number;
}

function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith(".test.ts")) found.push(path);
  }
  return found.sort();
}

function command(runtime: string, file: string): string[] {
  const deno = join(ROOT, "node_modules", ".bin", "deno");
  return runtime === "node" ? [process.execPath, "--import", "tsx", "--test", file] : [existsSync(deno) ? deno : "deno", "test", "-A", "--no-check", file];
}

function measure(runtime: string, file: string): Promise<Measure> {
  return new Promise((resolve) => {
    const child = spawn(TIME, ["-f", "TIME %U %S %e", ...command(runtime, file)], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-4096)));
    child.on("close", (code) => {
      const found = /TIME ([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
      const [user, system, wall] = found === null ? [NaN, NaN, NaN] : [Number(found[1]), Number(found[2]), Number(found[3])];
      resolve({ file, cpu: user + system, user, system, wall, code: code ?? -1 });
    });
  });
}

const [runtime, ...rest] = process.argv.slice(2);
if ((runtime !== "node" && runtime !== "deno") || !existsSync(TIME)) {
  process.stderr.write("usage: node --import tsx scripts/test-cpu.ts node|deno [--jobs N] [FILE…] (needs GNU time at /usr/bin/time)\n");
  process.exit(2);
}
let jobs = 2;
if (rest[0] === "--jobs") {
  jobs = Math.max(1, Number.parseInt(rest[1] ?? "", 10) || 1);
  rest.splice(0, 2);
}
const files = rest.length > 0 ? rest : [...testFiles("test"), ...testFiles("conformance")];
const measures: Measure[] = [];
let next = 0;
const line = (m: Measure) => `${m.file}\t${m.cpu.toFixed(2)}\t${m.user.toFixed(2)}\t${m.system.toFixed(2)}\t${m.wall.toFixed(2)}\t${m.code}\n`;
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, async () => {
  while (next < files.length) {
    const measured = await measure(runtime, files[next++]!);
    measures.push(measured);
    process.stdout.write(line(measured));
  }
}));
process.stdout.write("\nby CPU:\n");
for (const m of [...measures].sort((a, b) => b.cpu - a.cpu)) process.stdout.write(line(m));
const sum = (pick: (m: Measure) => number) => measures.reduce((total, m) => total + pick(m), 0).toFixed(1);
process.stdout.write(`total of ${measures.length} test file(s): ${sum((m) => m.cpu)} s of CPU, ${sum((m) => m.wall)} s of wall time one after another\n`);
