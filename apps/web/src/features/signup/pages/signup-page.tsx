export function SignupPage() {
  return <h1>Registrering</h1>;
}
