// Runs a Python file under real MicroPython (the WebAssembly build) with the firmware on its
// path: `node run-micropython.mjs SCRIPT.py`. The firmware's ccpanel package, main.py, the
// stand-in machine module and the protocol's test vectors (check/protocol-vectors.json) are
// copied into MicroPython's file system; what the script prints goes to standard output. Exit
// status 1 if the script raised.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = dirname(fileURLToPath(import.meta.url));
const firmware = dirname(here);
const script = process.argv[2];
if (!script) {
  console.error("usage: node run-micropython.mjs SCRIPT.py");
  process.exit(2);
}

const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
  linebuffer: true,
});
mp.FS.mkdir("/fw");
mp.FS.mkdir("/fw/ccpanel");
for (const name of readdirSync(join(firmware, "ccpanel"))) {
  if (name.endsWith(".py")) {
    mp.FS.writeFile(`/fw/ccpanel/${name}`, readFileSync(join(firmware, "ccpanel", name)));
  }
}
mp.FS.writeFile("/fw/main.py", readFileSync(join(firmware, "main.py")));
mp.FS.mkdir("/fw/check");
mp.FS.writeFile("/fw/check/protocol-vectors.json", readFileSync(join(here, "protocol-vectors.json")));
mp.FS.writeFile("/fw/machine.py", readFileSync(join(here, "standin", "machine.py")));
try {
  mp.runPython("import sys\nsys.path.insert(0, '/fw')");
  mp.runPython(readFileSync(script, "utf8"));
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
