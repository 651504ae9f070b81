package web

// messagesTable: the table pages' messages. Add entries here only; ids start
// with "table.".
var messagesTable = map[string]msg{}
