import CDStoreJSON
import Testing
