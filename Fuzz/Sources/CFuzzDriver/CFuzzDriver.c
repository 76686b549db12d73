// The declaration in include/CFuzzDriver.h is all there is; SwiftPM needs a source file for a C target.
