// The vocabulary the apps share with the server (kinds' inputs and their checks, job ids and states) is part of the
// domain's: what imports KilnCore sees it as before it moved out for KilnClient.
@_exported public import JobVocabulary
