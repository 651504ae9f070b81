package web

// messagesSecretary: the secretary pages' messages. Add entries here only; ids start
// with "secretary.".
var messagesSecretary = map[string]msg{}
