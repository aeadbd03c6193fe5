export function UserSupportPage() {
  return <h1>Användarstöd</h1>;
}
