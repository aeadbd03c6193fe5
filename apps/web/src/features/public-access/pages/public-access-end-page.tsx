export function PublicAccessEndPage() {
  return <h1>Mötet avslutat!</h1>;
}
