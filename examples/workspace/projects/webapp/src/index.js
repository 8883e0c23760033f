console.log("hello")
