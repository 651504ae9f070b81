package messages

// messagesAuth: sign-in, sign-out and first run (UI.md §2).
var messagesAuth = map[string]msg{
	"logout.title":        {"Esci", "Sign out"},
	"logout.confirm":      {"Vuoi uscire da Segnapunti su questo dispositivo?", "Sign out of Segnapunti on this device?"},
	"login.title":         {"Accedi", "Sign in"},
	"login.intro":         {"Inserisci il tuo nome utente e la password.", "Enter your user name and password."},
	"login.username":      {"Nome utente", "User name"},
	"login.password":      {"Password", "Password"},
	"login.submit":        {"Accedi", "Sign in"},
	"login.wrong":         {"Nome utente o password errati.", "Wrong user name or password."},
	"login.too_many":      {"Troppi tentativi sbagliati. Riprova fra %d secondi.", "Too many wrong attempts. Try again in %d seconds."},
	"setup.title":         {"Primo avvio", "First run"},
	"setup.intro":         {"Crea l'amministratore: potrà poi aggiungere circoli, segreterie e arbitri.", "Create the administrator, who can then add clubs, secretaries and referees."},
	"setup.submit":        {"Crea amministratore", "Create administrator"},
	"setup.closed":        {"Il primo avvio è già stato completato oppure il link non è valido. Accedi con il tuo nome utente.", "First run is already done, or the link is not valid. Sign in with your user name."},
	"form.password_short": {"La password deve avere almeno 8 caratteri.", "The password needs at least 8 characters."},
	"form.password_long":  {"La password può avere al massimo 72 caratteri.", "The password may have at most 72 characters."},
	"form.password_hint":  {"Almeno 8 caratteri.", "At least 8 characters."},
	"form.name_invalid":   {"Nome non valido (niente spazi all'inizio o alla fine).", "Invalid name (no spaces at the start or end)."},
	"error.bad_form":      {"Il modulo inviato non è leggibile.", "The form sent cannot be read."},
}
