export function PersonalDataPage() {
  return <h1>Så här hanterar vi personuppgifter i Videomöte</h1>;
}
