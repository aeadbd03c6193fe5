export function HomePage() {
  return <h1>Välkommen</h1>;
}
