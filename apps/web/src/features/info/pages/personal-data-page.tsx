import { useEffect, useState } from 'react';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { loadClientConfig } from '../../../lib/client-config.ts';

/**
 * /personaldata, linked from the lobby: how Videomöte handles personal data (conference spec §2, with the
 * retention wording of §9; the server's retention jobs delete on exactly these terms).
 */
export function PersonalDataPage() {
  useDocumentTitle('Videomöte - Personuppgifter');
  // The server's settings (RATING_COMMENT_RETENTION_DAYS, ACCESSIBILITY_REPORT_RETENTION_DAYS), so the page says
  // what the retention job does.
  const [days, setDays] = useState<{ comment: number; report: number } | null>(null);
  useEffect(() => {
    void loadClientConfig().then(
      (c) => setDays({ comment: c.ratingCommentDays, report: c.accessibilityReportDays }),
      () => setDays(null),
    );
  }, []);
  return (
    <article className="prose">
      <h1>Så här hanterar vi personuppgifter i Videomöte</h1>
      <p className="lead">
        Här kan du läsa om vilka personuppgifter vi behandlar när du använder Videomöte, varför vi gör det, hur länge uppgifterna sparas och vilka
        rättigheter du har.
      </p>

      <section aria-labelledby="pd-controller">
        <h2 id="pd-controller">Personuppgiftsansvarig</h2>
        <p>
          Arbetsförmedlingen är personuppgiftsansvarig för behandlingen av dina personuppgifter i Videomöte. Det betyder att vi ansvarar för att
          uppgifterna behandlas korrekt och enligt dataskyddsförordningen (GDPR).
        </p>
      </section>

      <section aria-labelledby="pd-how">
        <h2 id="pd-how">Så hanterar vi dina personuppgifter</h2>
        <p>Vi behandlar dina personuppgifter för att</p>
        <ul>
          <li>kunna genomföra ett säkert videomöte mellan dig och oss, och de andra som är inbjudna till mötet,</li>
          <li>du ska kunna delta i större, offentliga videosamlingar, till exempel informationsmöten,</li>
          <li>kunna tillhandahålla tjänsten Videomöte: boka möten, skicka inbjudningar, logga in och ge support.</li>
        </ul>
        <p>Mötet är krypterat och går bara att nå för den som är inbjuden eller har fått länken till ett informationsmöte.</p>
      </section>

      <section aria-labelledby="pd-what">
        <h2 id="pd-what">Vilka personuppgifter vi behandlar</h2>
        <ul>
          <li>Namn</li>
          <li>Kontaktuppgifter, till exempel e-postadress</li>
          <li>Personnummer, för att du ska kunna logga in med e-legitimation och kopplas till rätt möte</li>
          <li>Bild och ljud under mötet, om du har kamera och mikrofon på</li>
        </ul>
        <p>Skriv inte känsliga personuppgifter i chatten eller i mötets rubrik.</p>
      </section>

      <section aria-labelledby="pd-retention">
        <h2 id="pd-retention">Hur länge vi sparar uppgifterna</h2>
        <ul>
          <li>Mötets innehåll, det vill säga bild, ljud och chatt, raderas när samtalet avslutas. Vi spelar inte in möten.</li>
          <li>Ditt personnummer raderas efter att mötet har avslutats.</li>
          <li>Bokningsinformationen sparas tills mötet har hållits.</li>
          <li>Kontaktuppgifter och övrig bokningsinformation sparas till midnatt samma dag.</li>
          {days !== null && (
            <>
              <li>
                En kommentar som du skriver när du betygsätter samtalet raderas efter {days.comment} dagar. Själva betyget sparas utan koppling
                till dig.
              </li>
              <li>En rapport om tillgänglighet som du skickar in, med eventuella kontaktuppgifter, raderas efter {days.report} dagar.</li>
            </>
          )}
        </ul>
      </section>

      <section aria-labelledby="pd-transfer">
        <h2 id="pd-transfer">Överföring av uppgifter</h2>
        <p>
          Dina personuppgifter behandlas i Sverige och lämnas inte över till länder utanför EU/EES. Bild och ljud skickas krypterat mellan
          deltagarna via vår egen videoserver. Vi lämnar inte ut dina uppgifter till andra, om vi inte är skyldiga att göra det enligt lag.
        </p>
        <p>
          Bild och ljud krypteras hela vägen mellan deltagarnas webbläsare, med en nyckel som bara mötets deltagare får. Videoservern som skickar
          vidare bild och ljud kan därför inte se eller höra mötet. Byts en deltagare ut eller tas bort från mötet får de som är kvar en ny
          nyckel. Det som inte krypteras hela vägen är chatten, deltagarnas namn och vilka som är anslutna: de skickas krypterat till vår
          server, som kan läsa dem.
        </p>
      </section>

      <section aria-labelledby="pd-rights">
        <h2 id="pd-rights">Dina rättigheter, dataskyddsombud och klagomål</h2>
        <p>
          Du har rätt att få veta vilka uppgifter vi behandlar om dig (registerutdrag), att få felaktiga uppgifter rättade, att i vissa fall få
          uppgifter raderade eller behandlingen begränsad, och att invända mot behandlingen.
        </p>
        <p>
          Har du frågor om hur vi behandlar dina personuppgifter kan du kontakta vårt dataskyddsombud på{' '}
          <a href="mailto:dataskyddsombud@arbetsformedlingen.se">dataskyddsombud@arbetsformedlingen.se</a>.
        </p>
        <p>
          Om du anser att vi behandlar dina personuppgifter felaktigt kan du lämna klagomål till Integritetsskyddsmyndigheten (IMY), som är
          tillsynsmyndighet.
        </p>
      </section>
    </article>
  );
}
