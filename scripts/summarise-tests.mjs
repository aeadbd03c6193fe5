// Sums vitest JSON reports into the one closing line CI reads: "N passed, N failed[, N skipped]".
// A test file that could not even load counts as one failure, so a broken suite never looks green.
// Each failure is named just above that line, so a log that keeps only its tail still says what failed.
import fs from 'node:fs';
import path from 'node:path';

let passed = 0, failed = 0, skipped = 0;
const failures = [];
const firstLine = (messages) => String(messages?.[0] ?? '').split('\n').find((l) => l.trim())?.trim().slice(0, 700) ?? '';
// A file that did not load often says why further down (a server's start-up log after "server exited (1):").
const whyNotLoaded = (message) => {
  const lines = String(message ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  const cause = lines.slice(1).find((l) => /error|EADDRINUSE|timeout/i.test(l));
  return [lines[0] ?? '', cause].filter(Boolean).join(' … ').slice(0, 600);
};

for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) { failed += 1; failures.push(`${path.basename(file)}: no report (the run did not finish)`); continue; }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  for (const suite of r.testResults ?? []) {
    const where = path.relative(process.cwd(), suite.name);
    const failedTests = suite.assertionResults.filter((a) => a.status === 'failed');
    for (const a of failedTests) failures.push(`${where} > ${a.fullName}: ${firstLine(a.failureMessages)}`);
    if (suite.status === 'failed' && failedTests.length === 0) {
      failed += 1;
      failures.push(`${where}: did not load: ${whyNotLoaded(suite.message)}`);
    }
  }
}
if (failures.length) console.log(`FAILED:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
