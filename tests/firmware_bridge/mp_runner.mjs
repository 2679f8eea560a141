// Run Python files under the real MicroPython (WebAssembly build) in Node.
//
//   node mp_runner.mjs <main.py> [<module.py> ...]
//
// Every <module.py> is copied into /app (importable by its file name); <main.py> is then run
// with /app on sys.path. What MicroPython prints goes to stdout; an uncaught Python exception
// prints "MPERROR <message>" and exits with status 1.
import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const { loadMicroPython } = await import(
  resolve(root, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"));

const [mainFile, ...modules] = process.argv.slice(2);
const mp = await loadMicroPython({
  heapsize: 32 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/app");
for (const file of modules) {
  mp.FS.writeFile("/app/" + basename(file), readFileSync(file));
}
try {
  mp.runPython("import sys\nsys.path.insert(0, '/app')\n" + readFileSync(mainFile, "utf8"));
} catch (error) {
  process.stdout.write("MPERROR " + String(error.message || error).replace(/\n/g, " | ") + "\n");
  process.exit(1);
}
