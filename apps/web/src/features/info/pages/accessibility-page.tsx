export function AccessibilityPage() {
  return <h1>Tillgänglighetsredogörelse</h1>;
}
