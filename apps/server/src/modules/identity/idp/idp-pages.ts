import { PERSONAS } from '../personas.ts';

/** HTML of the embedded test IdP. Plain server-rendered pages: they must work before and without the web app. */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// A file, not inline: the Content-Security-Policy allows scripts from our own origin only.
export const IDP_LOGOUT_JS = `(function () {
  var form = document.getElementById('op.logoutForm');
  if (!form) return;
  var input = document.createElement('input');
  input.type = 'hidden'; input.name = 'logout'; input.value = 'yes';
  form.appendChild(input);
  form.submit();
})();
`;

export const IDP_CSS = `
:root{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1b1b1b;background:#f4f4f6;line-height:1.5}
body{margin:0}
header{background:#00005a;color:#fff;padding:1rem 1.5rem;font-weight:600}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{margin-top:0;color:#00005a}
h2{font-size:1.15rem;margin-top:2rem}
.note{background:#fff3c4;border-left:4px solid #8a6d00;padding:.75rem 1rem}
.personas{list-style:none;padding:0;display:grid;gap:.5rem}
button{font:inherit;cursor:pointer;border-radius:4px;padding:.6rem 1rem;border:2px solid #00005a;background:#00005a;color:#fff;width:100%;text-align:left}
button.secondary{background:#fff;color:#00005a;text-align:center}
button:hover{background:#1a1a7a;color:#fff}
.field{display:flex;flex-direction:column;margin-bottom:1rem}
label{font-weight:600}
input{font:inherit;padding:.5rem;border:1px solid #4a4a4a;border-radius:4px}
.hint{color:#4a4a4a;font-size:.9rem}
.error{color:#b30000;font-weight:600}
:focus-visible{outline:3px solid #d1005e;outline-offset:2px}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/idp/assets/idp.css">
</head>
<body>
<header>Videomöte – testlegitimering</header>
<main>
${body}
</main>
</body>
</html>`;
}

export interface LoginFormState {
  pin?: string;
  name?: string;
  roles?: string;
  errors?: { pin?: string; name?: string };
}

export function loginPage(uid: string, state: LoginFormState = {}): string {
  const action = `/idp/interaction/${encodeURIComponent(uid)}`;
  const personaButtons = PERSONAS.map(
    (p) => `<li><button type="submit" name="persona" value="${esc(p.key)}">${esc(p.button)}</button></li>`,
  ).join('\n');
  const err = state.errors ?? {};
  const fieldError = (id: string, message?: string) => (message ? `<span class="error" id="${id}-error">${esc(message)}</span>` : '');
  const describedBy = (id: string, message?: string) => (message ? ` aria-describedby="${id}-error ${id}-hint" aria-invalid="true"` : ` aria-describedby="${id}-hint"`);
  const summary =
    err.pin || err.name
      ? `<div class="error" role="alert"><p>Kontrollera uppgifterna i formuläret.</p></div>`
      : '';
  return layout(
    'Testlegitimering – Videomöte',
    `<h1>Testlegitimering</h1>
<p class="note"><strong>Det här är en testinloggning.</strong> Ingen riktig legitimering sker här, och den finns bara
när tjänsten körs utan en riktig identitetsleverantör. Välj en testperson eller logga in med valfritt giltigt personnummer.</p>
<h2 id="personas-heading">Logga in som testperson</h2>
<form method="post" action="${action}/login" aria-labelledby="personas-heading">
<ul class="personas">
${personaButtons}
</ul>
</form>
<h2 id="pin-heading">Logga in med personnummer</h2>
${summary}
<form method="post" action="${action}/login" aria-labelledby="pin-heading" novalidate>
<div class="field">
<label for="pin">Personnummer</label>
<span class="hint" id="pin-hint">ÅÅÅÅMMDD-NNNN</span>
${fieldError('pin', err.pin)}
<input id="pin" name="pin" inputmode="numeric" autocomplete="off" value="${esc(state.pin ?? '')}"${describedBy('pin', err.pin)}>
</div>
<div class="field">
<label for="name">Namn</label>
<span class="hint" id="name-hint">Förnamn och efternamn</span>
${fieldError('name', err.name)}
<input id="name" name="name" autocomplete="name" value="${esc(state.name ?? '')}"${describedBy('name', err.name)}>
</div>
<div class="field">
<label for="roles">Roller (valfritt)</label>
<span class="hint" id="roles-hint">Kommaseparerade, till exempel Participant. Tomt betyder Participant.</span>
<input id="roles" name="roles" autocomplete="off" value="${esc(state.roles ?? '')}" aria-describedby="roles-hint">
</div>
<button type="submit" name="form" value="pin">Logga in</button>
</form>
<form method="post" action="${action}/abort">
<p><button type="submit" class="secondary">Avbryt</button></p>
</form>`,
  );
}

/**
 * oidc-provider hands us its hidden logout form; we submit it at once (the user already chose to log out in
 * Videomöte), keeping a button for browsers without script.
 */
export function logoutPage(form: string): string {
  return layout(
    'Loggar ut – Videomöte',
    `<h1>Loggar ut</h1>
<p>Du loggas ut från testlegitimeringen.</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Logga ut</button>
<script src="/idp/assets/logout.js"></script>`,
  );
}

export function loggedOutPage(): string {
  return layout('Utloggad – Videomöte', `<h1>Du är utloggad</h1><p><a href="/">Till startsidan</a></p>`);
}

export function idpErrorPage(error: string, description?: string): string {
  return layout(
    'Inloggningen misslyckades – Videomöte',
    `<h1>Inloggningen misslyckades</h1>
<p>Testlegitimeringen kunde inte slutföra inloggningen. Försök igen från början.</p>
<p class="hint">Felkod: ${esc(error)}${description ? ` – ${esc(description)}` : ''}</p>
<p><a href="/">Till startsidan</a></p>`,
  );
}
