export function ErrorPage() {
  return <h1>Något gick fel</h1>;
}
export function NotFoundPage() {
  return <h1>Sidan hittades inte</h1>;
}
