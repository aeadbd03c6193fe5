// Sums vitest JSON reports into the one closing line CI reads: "N passed, N failed[, N skipped]".
// A test file that could not even load counts as one failure, so a broken suite never looks green.
import fs from 'node:fs';

let passed = 0, failed = 0, skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) { failed += 1; continue; }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  for (const suite of r.testResults ?? []) {
    if (suite.status === 'failed' && !suite.assertionResults.some((a) => a.status === 'failed')) failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
