// hellojs on the redirect URI page, as its documentation has it: the library alone. Loading it
// reads the fragment, stores the session in localStorage and, in page mode, goes back to the
// page that started the login (page_uri), where the app sends the token to its backend.
import 'hellojs/dist/hello.js';
