package web

// messagesPublic: the public pages' messages. Add entries here only; ids start
// with "public.".
var messagesPublic = map[string]msg{}
