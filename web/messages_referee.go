package web

// messagesReferee: the referee pages' messages. Add entries here only; ids start
// with "referee.".
var messagesReferee = map[string]msg{}
