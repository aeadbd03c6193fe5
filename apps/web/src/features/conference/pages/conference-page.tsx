export function ConferencePage() {
  return <h1>Pågående möte</h1>;
}
