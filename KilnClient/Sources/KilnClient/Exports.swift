// The apps' inputs are the server's own types: an app imports KilnClient and has them, and the kinds' results.
@_exported public import ChatTaleInputs
@_exported public import DocumentInputs
@_exported public import ImageOptions
@_exported public import JobVocabulary
@_exported public import JoanieInputs
@_exported public import TalevoniaInputs
@_exported public import VeramoInputs
@_exported public import WorldArchitectInputs
