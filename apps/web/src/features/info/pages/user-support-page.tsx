import { Link } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { SupportContactList } from '../components/support-contact-list.tsx';
import { SUPPORT } from '../support-contacts.ts';

/** /usersupport: where to get help, with the subpages. */
export function UserSupportPage() {
  useDocumentTitle('Videomöte - Användarstöd');
  return (
    <article>
      <h1>Användarstöd</h1>
      <p className="lead">Här hittar du hjälp med att komma igång med Videomöte och att lösa vanliga problem.</p>
      <ul className="link-list">
        <li>
          <Link to="/usersupport/whatisavideomeeting">Vad är ett videomöte?</Link>
        </li>
        <li>
          <Link to="/usersupport/troubleshooting">Felsökning: kamera, mikrofon och ljud</Link>
        </li>
        <li>
          <Link to="/personaldata">Så här hanterar vi personuppgifter</Link>
        </li>
        <li>
          <Link to="/accessability">Tillgänglighetsredogörelse och rapportera brister</Link>
        </li>
      </ul>
      <h2>Kontakta oss</h2>
      <p>Kundtjänsten har öppet {SUPPORT.helpHours}.</p>
      <SupportContactList />
    </article>
  );
}

/** /usersupport/whatisavideomeeting: the help text of booking spec §2 (hours 08:00–16:00, 10 Mbit/s). */
export function WhatIsAVideoMeetingPage() {
  useDocumentTitle('Videomöte - Vad är ett videomöte?');
  return (
    <article>
      <h1>Vad är ett videomöte?</h1>
      <p className="lead">
        Ett videomöte är ett möte där ni ser och hör varandra via dator, surfplatta eller mobil. Du kan ha samtalet säkert på distans, utan att
        resa.
      </p>
      <h2>Det här behöver du</h2>
      <ul>
        <li>En dator, surfplatta eller mobil med kamera och mikrofon.</li>
        <li>En uppdaterad webbläsare, till exempel Chrome, Edge, Firefox eller Safari.</li>
        <li>En stabil internetuppkoppling på minst 10 Mbit/s upp och ner.</li>
        <li>Gärna ett headset, så hör ni varandra bättre.</li>
        <li>En lugn och avskild plats, så att ingen obehörig hör samtalet.</li>
      </ul>
      <h2>Så går det till</h2>
      <ol>
        <li>Logga in och öppna mötet under Mina möten, eller klicka på länken i din inbjudan.</li>
        <li>Testa kamera och mikrofon i lobbyn och godkänn hanteringen av personuppgifter.</li>
        <li>Välj Anslut till mötet.</li>
      </ol>
      <h2>Behöver du hjälp?</h2>
      <p>Kundtjänsten har öppet {SUPPORT.helpHours}.</p>
      <SupportContactList />
      <p>
        <Link to="/usersupport/troubleshooting">Läs om felsökning</Link>
      </p>
    </article>
  );
}

/** /usersupport/troubleshooting; `#user-media` is linked from the conference's camera/microphone-denied error. */
export function TroubleshootingPage() {
  useDocumentTitle('Videomöte - Felsökning');
  return (
    <article>
      <h1>Felsökning</h1>
      <p className="lead">Här finns råd om något inte fungerar som det ska.</p>

      <section id="user-media" aria-labelledby="user-media-heading" tabIndex={-1}>
        <h2 id="user-media-heading">Tillåt kamera och mikrofon</h2>
        <p>
          Webbläsaren frågar om Videomöte får använda din kamera och mikrofon. Du behöver tillåta det för att delta i mötet med ljud och bild. Om du
          har nekat, eller aldrig fick frågan:
        </p>
        <ol>
          <li>Klicka på hänglåset eller infoikonen till vänster om adressen i adressfältet.</li>
          <li>Välj Tillåt för Kamera och Mikrofon.</li>
          <li>Ladda om sidan.</li>
        </ol>
        <p>
          På mobil och surfplatta kan du också behöva tillåta kamera och mikrofon för webbläsaren i enhetens inställningar. Kontrollera också att
          ingen annan app, till exempel ett annat videomötesprogram, använder kameran samtidigt.
        </p>
      </section>

      <section aria-labelledby="sound-heading">
        <h2 id="sound-heading">Ljud och bild</h2>
        <ul>
          <li>Ladda om sidan. Det löser ofta problemet.</li>
          <li>Kontrollera under Inställningar i mötet att rätt kamera och mikrofon är valda.</li>
          <li>Hör du eko? Använd headset, eller sänk volymen.</li>
          <li>Hackar bilden? Stäng andra program som använder internet. Du behöver minst 10 Mbit/s upp och ner.</li>
        </ul>
      </section>

      <section id="felanmalan" aria-labelledby="fault-heading" tabIndex={-1}>
        <h2 id="fault-heading">Felanmälan</h2>
        <p>
          Fungerar det ändå inte? Ring kundtjänsten {SUPPORT.helpHours}. Berätta vilken webbläsare och enhet du använder, vilken tid felet
          inträffade och vad som hände.
        </p>
        <SupportContactList />
      </section>
    </article>
  );
}
