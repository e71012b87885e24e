/// A column's type as the server reports it: its OID in `pg_type`.
public struct PostgresDataType: Sendable, Hashable, CustomStringConvertible {
    public let oid: UInt32

    public init(oid: UInt32) {
        self.oid = oid
    }

    public static let bool = PostgresDataType(oid: 16)
    public static let bytea = PostgresDataType(oid: 17)
    public static let int8 = PostgresDataType(oid: 20)
    public static let int2 = PostgresDataType(oid: 21)
    public static let int4 = PostgresDataType(oid: 23)
    public static let text = PostgresDataType(oid: 25)
    public static let json = PostgresDataType(oid: 114)
    public static let float4 = PostgresDataType(oid: 700)
    public static let float8 = PostgresDataType(oid: 701)
    public static let varchar = PostgresDataType(oid: 1043)
    public static let timestamp = PostgresDataType(oid: 1114)
    public static let timestamptz = PostgresDataType(oid: 1184)
    public static let numeric = PostgresDataType(oid: 1700)
    public static let uuid = PostgresDataType(oid: 2950)
    public static let jsonb = PostgresDataType(oid: 3802)

    /// The element type when this is a one-dimensional array type the decoders know.
    var arrayElement: PostgresDataType? {
        Self.arrayElements[oid].map(PostgresDataType.init(oid:))
    }

    var isInteger: Bool { self == .int2 || self == .int4 || self == .int8 }

    public var description: String {
        if let name = Self.names[oid] { return name }
        if let element = arrayElement { return "\(element)[]" }
        return "type \(oid)"
    }

    private static let names: [UInt32: String] = [
        16: "boolean", 17: "bytea", 18: "char", 19: "name", 20: "bigint", 21: "smallint", 23: "integer", 25: "text",
        26: "oid", 114: "json", 700: "real", 701: "double precision", 1042: "character", 1043: "character varying",
        1082: "date", 1114: "timestamp", 1184: "timestamptz", 1186: "interval", 1700: "numeric", 2950: "uuid",
        3802: "jsonb",
    ]

    /// Array type OID → element type OID.
    private static let arrayElements: [UInt32: UInt32] = [
        1000: 16, 1001: 17, 1002: 18, 1003: 19, 1005: 21, 1007: 23, 1009: 25, 1028: 26, 199: 114, 1021: 700,
        1022: 701, 1014: 1042, 1015: 1043, 1016: 20, 1182: 1082, 1115: 1114, 1185: 1184, 1187: 1186, 1231: 1700, 2951: 2950,
        3807: 3802,
    ]
}
