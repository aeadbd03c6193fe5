export function PublicAccessPage() {
  return <h1>Välkommen</h1>;
}
