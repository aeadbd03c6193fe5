export function LobbyPage() {
  return <h1>Till Mötet</h1>;
}
