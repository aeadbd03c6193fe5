export function LoggedOutPage() {
  return <h1>Automatisk utloggning</h1>;
}
