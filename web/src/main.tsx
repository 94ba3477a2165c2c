import { openPage } from './app/open-page';
import { linkedLanguages } from './i18n/page-language';
import './app/app.css';

// docs/behaviour.md §2.1: the page scrolls to the top on load (and the browser must not restore an old
// position).
if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
window.scrollTo(0, 0);

const root = document.getElementById('root');
// docs/behaviour.md §2.24: the first render is in English, or in the language the link asks for once its
// strings are here.
if (root) void openPage(root, linkedLanguages(window.location.search));
